import * as v from 'valibot';
import type { Entity } from '../../domain/catalog/index.js';
import * as out from '../outputs.js';
import { defineOperation, type Operation } from '../types.js';
import { describeSchema } from './describe.js';

function schemaOperation(entity: Entity): Operation {
  const plural = entity === 'contact' ? 'contacts' : 'companies';
  return defineOperation({
    name: `${plural}.schema`,
    family: 'A',
    method: 'GET',
    path: `/v1/${plural}/schema`,
    auth: 'key',
    spends: false,
    summary: entity === 'contact' ? 'List columns' : 'Company schema',
    description:
      `Every public ${entity} column (name, type, description, format, nullable, closed list, values route), every ` +
      `${entity} filter key, and notes on the limits of the filter language.`,
    cost: 'free',
    output: out.schemaOutput,
    errors: [],
    input: v.object({}),
    handler: async () => ({ data: describeSchema(entity) }),
  });
}

export const getContactsSchema = schemaOperation('contact');
export const getCompaniesSchema = schemaOperation('company');
