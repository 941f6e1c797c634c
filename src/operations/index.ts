import { getAccount } from './account/get-account.js';
import { getCredits } from './account/get-credits.js';
import { adminCreateAccount, adminGetAccount, adminResumeAccount, adminSuspendAccount } from './admin/accounts.js';
import { adminAddOptOuts, adminListOptOuts, adminOptOutAudit, adminRemoveOptOuts } from './admin/optouts.js';
import {
  countAudience,
  createAudience,
  deleteAudience,
  getAudience,
  listAudiences,
  updateAudience,
} from './audiences/audiences.js';
import { countCompanies, searchCompanies } from './companies/company-ops.js';
import { lookupCompanies } from './companies/lookup-companies.js';
import { countContacts } from './contacts/count-contacts.js';
import { searchContacts } from './contacts/search-contacts.js';
import { withDryRun } from './dry-run.js';
import { enrichContacts } from './enrichment/enrich-contacts.js';
import { createEnrichmentUpload, getEnrichmentRun, listEnrichmentRuns } from './enrichment-runs/enrichment-runs.js';
import { withExamples } from './examples/index.js';
import { createExport, getExport } from './exports/family-a.js';
import { createExportB, getExportB } from './exports/family-b.js';
import { countContactsB } from './family-b/count.js';
import { createDomainList, listDomainLists } from './family-b/domain-lists.js';
import { enrichFromEmail, enrichFromNetwork, enrichFromPerson } from './family-b/enrich.js';
import { filterValuesB } from './family-b/filter-values.js';
import { contactsHealthB, fairUseB } from './family-b/health-usage.js';
import { lookupColleagues, lookupDecisionMakers, lookupPhone, lookupPhonesBatch } from './family-b/lookups.js';
import { searchContactsB } from './family-b/search.js';
import { sendFeedback } from './feedback/send-feedback.js';
import { createKey, listKeys, revokeKey } from './keys/keys.js';
import { getAvailableColumns } from './mcp-only/available-columns.js';
import { checkEnrichmentStatus, getEnrichmentResult } from './mcp-only/enrichment-run.js';
import { checkUpload, createUploadLink } from './mcp-only/enrichment-upload.js';
import {
  collectSignals,
  createAlert,
  deleteAlert,
  getAlert,
  getCollect,
  listAlerts,
  listSignals,
  pollAlert,
  updateAlert,
} from './network-signals/index.js';
import { getRequest, listRequests } from './requests/requests.js';
import { getCompanyValues, getContactValues } from './schema/column-values.js';
import { getCompaniesSchema, getContactsSchema } from './schema/get-schema.js';
import { getApiHealth, getHealth } from './system/health.js';
import type { Operation } from './types.js';
import { WEBHOOK_OPERATIONS } from './webhooks/webhooks.js';

/**
 * The operation table (ARCHITECTURE rule 3): REST routes, MCP tools and OpenAPI are generated from it. Every
 * spending operation takes `dry_run` (a quote; dry-run.ts).
 */
export const OPERATIONS: readonly Operation[] = (
  [
    getHealth,
    getApiHealth,
    getAccount,
    getCredits,
    getContactsSchema,
    getContactValues,
    getCompaniesSchema,
    getCompanyValues,
    countContacts,
    searchContacts,
    countCompanies,
    searchCompanies,
    lookupCompanies,
    enrichContacts,
    createEnrichmentUpload,
    listEnrichmentRuns,
    getEnrichmentRun,
    createExport,
    getExport,
    createAudience,
    listAudiences,
    getAudience,
    countAudience,
    updateAudience,
    deleteAudience,
    listRequests,
    getRequest,
    collectSignals,
    getCollect,
    listSignals,
    createAlert,
    listAlerts,
    getAlert,
    updateAlert,
    deleteAlert,
    pollAlert,
    searchContactsB,
    countContactsB,
    createExportB,
    getExportB,
    filterValuesB,
    contactsHealthB,
    fairUseB,
    enrichFromNetwork,
    enrichFromEmail,
    enrichFromPerson,
    lookupPhone,
    lookupPhonesBatch,
    lookupColleagues,
    lookupDecisionMakers,
    createDomainList,
    listDomainLists,
    listKeys,
    createKey,
    revokeKey,
    sendFeedback,
    adminCreateAccount,
    adminGetAccount,
    adminSuspendAccount,
    adminResumeAccount,
    adminListOptOuts,
    adminAddOptOuts,
    adminRemoveOptOuts,
    adminOptOutAudit,
    ...WEBHOOK_OPERATIONS,
  ] as Operation[]
)
  .map(withDryRun)
  .map(withExamples);

/** Tools that exist only over MCP (spec "MCP tools"): no REST route, no OpenAPI path. */
export const MCP_ONLY_OPERATIONS: readonly Operation[] = [
  getAvailableColumns,
  createUploadLink,
  checkUpload,
  checkEnrichmentStatus,
  getEnrichmentResult,
] as Operation[];
