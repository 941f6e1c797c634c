import type { Database, Statement } from 'better-sqlite3';
import { AppError } from '../../domain/errors/index.js';
import { newId } from '../../domain/ids.js';
import type { DomainList, DomainListLimits } from '../port.js';
import type { SqliteAccounts } from './accounts.js';

interface Row {
  id: string;
  account_id: string;
  name: string;
  domains: string;
  created_at: string;
}

const toList = (r: Row): DomainList => ({
  id: r.id,
  accountId: r.account_id,
  name: r.name,
  domains: JSON.parse(r.domains) as string[],
  createdAt: r.created_at,
});

/** Saved domain lists; reads always name the owning account, so another account's id is simply unknown. */
export class SqliteDomainLists {
  private readonly insert: Statement<[Row]>;
  private readonly one: Statement<[string, string], Row>;
  private readonly all: Statement<[string], Row>;
  private readonly held: Statement<[string], { lists: number; domains: number | null }>;

  constructor(
    private readonly db: Database,
    private readonly accounts: SqliteAccounts,
  ) {
    this.held = db.prepare(
      'SELECT count(*) AS lists, sum(json_array_length(domains)) AS domains FROM domain_lists WHERE account_id = ?',
    );
    this.insert = db.prepare(
      'INSERT INTO domain_lists (id, account_id, name, domains, created_at) VALUES (@id, @account_id, @name, ' +
        '@domains, @created_at)',
    );
    this.one = db.prepare('SELECT * FROM domain_lists WHERE account_id = ? AND id = ?');
    this.all = db.prepare('SELECT * FROM domain_lists WHERE account_id = ? ORDER BY created_at, id');
  }

  create(
    accountId: string,
    input: { name: string; domains: string[]; now: Date },
    limits: DomainListLimits,
  ): DomainList {
    this.accounts.require(accountId);
    const row: Row = {
      id: newId('domainList'),
      account_id: accountId,
      name: input.name,
      domains: JSON.stringify(input.domains),
      created_at: input.now.toISOString(),
    };
    this.db
      .transaction(() => {
        const held = this.held.get(accountId)!;
        const domains = (held.domains ?? 0) + input.domains.length;
        if (held.lists + 1 > limits.lists || domains > limits.domains) {
          throw new AppError(
            'domain_lists.limit_reached',
            `The account holds ${held.lists} lists with ${held.domains ?? 0} domains; at most ${limits.lists} lists ` +
              `and ${limits.domains} domains in all may be saved.`,
            { hint: 'Saved lists cannot be deleted yet; use the domains filter for one-off lists.' },
          );
        }
        this.insert.run(row);
      })
      .immediate();
    return toList(row);
  }

  get(accountId: string, id: string): DomainList | undefined {
    const r = this.one.get(accountId, id);
    return r ? toList(r) : undefined;
  }

  list(accountId: string): DomainList[] {
    return this.all.all(accountId).map(toList);
  }
}
