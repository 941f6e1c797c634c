import { WHERE_SQL_MAX_CHARS, WHERE_SQL_MAX_CONDITIONS } from '../../../domain/family-b/where-sql.js';
import { type IRNode, leafCount } from '../../../domain/query/ir.js';
import { FILTER_NUMBER_RANGE_TEXT } from '../../../domain/query/number-range.js';
import { hasComment, outsideLiterals } from './comments.js';
import { isAstNode } from './literals.js';
import { refuse } from './refuse.js';
import { walkPredicate } from './walk.js';

/** Runs one parameterized statement and returns its rows (the engine's read connection). */
export type RunSql = (sql: string, params: unknown[]) => Promise<Record<string, unknown>[]>;

const PREFIX = 'SELECT * FROM contacts WHERE ';
/**
 * The client's text is only ever a bound string handed to DuckDB's parser; nothing of it is
 * executed. The second column serializes a reference statement with the same prefix, so anything
 * the text adds beyond the WHERE clause (ORDER BY, LIMIT, UNION, GROUP BY, ...) shows as a
 * difference, whatever DuckDB version serializes it.
 */
const SERIALIZE = `SELECT json_serialize_sql($1::VARCHAR) AS j, json_serialize_sql('${PREFIX}TRUE') AS ref`;

const HINT = "Send one condition over contact columns, such as title ILIKE '%sales%' AND company_employee_count >= 50.";

/**
 * Family B `where_sql` into the Query IR (ARCHITECTURE rule 2): parsed by DuckDB's own parser
 * (`json_serialize_sql`), then the AST is walked against an allow-list (walk.ts). Every refusal is
 * 400 `request.invalid` on field `where_sql`, except an unknown closed-list value (400 `filter.unknown_value`).
 */
export async function parseWhereSql(sql: string, run: RunSql): Promise<IRNode> {
  if (typeof sql !== 'string') throw refuse('where_sql must be a string.', HINT);
  if (sql.length > WHERE_SQL_MAX_CHARS && [...sql].length > WHERE_SQL_MAX_CHARS) {
    throw refuse(
      `where_sql is longer than ${WHERE_SQL_MAX_CHARS} characters.`,
      'Shorten the predicate, or move list conditions into the flat filters (domains, job_titles, …).',
    );
  }
  if (sql.trim() === '') throw refuse('where_sql is blank.', HINT);
  const control = controlCharacter(sql);
  if (control !== undefined) {
    throw refuse(
      `where_sql holds the control character U+${control.toString(16).toUpperCase().padStart(4, '0')}, which is not accepted.`,
      `Remove it; only tabs and line breaks may separate words. ${HINT}`,
    );
  }
  const rows = await run(SERIALIZE, [PREFIX + sql]);
  const parsed = serializedTree(rows[0]?.j);
  const reference = json(rows[0]?.ref);
  if (parsed.error === true) throw parserRefusal(parsed);
  const statements = parsed.statements;
  if (!Array.isArray(statements) || statements.length !== 1) {
    throw refuse('where_sql holds more than one statement.', `Remove the semicolon and what follows. ${HINT}`);
  }
  if (hasComment(sql))
    throw refuse('where_sql holds a comment (-- or /* */), which is not accepted.', `Remove the comment. ${HINT}`);
  // DuckDB's serializer drops a WINDOW clause, so the comparison with the reference below cannot see it.
  if (/\bwindow\b/i.test(outsideLiterals(sql)))
    throw refuse('where_sql continues past a condition (a WINDOW clause is not accepted).', HINT);
  const statement = statements[0] as { node?: { where_clause?: unknown } };
  const where = statement.node?.where_clause;
  const ir = isAstNode(where) ? walkPredicate(where) : undefined;
  const refStatement = (reference.statements as unknown[] | undefined)?.[0];
  // Checked after the walk, so a refused part of the condition itself (a $1 placeholder) is named first.
  if (ir === undefined || canonical(statement) !== canonical(refStatement)) {
    throw refuse('where_sql continues past a condition (ORDER BY, LIMIT, GROUP BY, UNION, … are not accepted).', HINT);
  }
  const conditions = leafCount(ir);
  if (conditions > WHERE_SQL_MAX_CONDITIONS) {
    throw refuse(
      `where_sql holds ${conditions} conditions; at most ${WHERE_SQL_MAX_CONDITIONS} are accepted.`,
      'Move lists of values into IN (…) or the flat filters (domains, job_titles, …), which count as one condition.',
    );
  }
  return ir;
}

/** The first control character other than tab, line feed and carriage return (NUL would end the text early). */
function controlCharacter(sql: string): number | undefined {
  for (let i = 0; i < sql.length; i++) {
    const code = sql.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0x7f) return code;
  }
  return undefined;
}

/**
 * The client's parse tree. DuckDB writes a number literal beyond the double range (1e400) as a bare Infinity,
 * which is not JSON: that text is refused as such a number, never a 500.
 */
function serializedTree(v: unknown): Record<string, unknown> {
  try {
    return json(v);
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw e;
    throw refuse(
      `A number in where_sql is outside the range ${FILTER_NUMBER_RANGE_TEXT}.`,
      'Use a number inside that range, written with at most 15 significant digits.',
    );
  }
}

function json(v: unknown): Record<string, unknown> {
  const parsed: unknown = typeof v === 'string' ? JSON.parse(v) : v;
  if (typeof parsed !== 'object' || parsed === null) throw new Error('json_serialize_sql returned no object');
  return parsed as Record<string, unknown>;
}

function parserRefusal(parsed: Record<string, unknown>) {
  const message = typeof parsed.error_message === 'string' ? parsed.error_message : 'unknown error';
  if (parsed.error_type === 'parser') {
    const position = Number(parsed.position);
    const at =
      Number.isInteger(position) && position >= PREFIX.length ? ` (at character ${position - PREFIX.length + 1})` : '';
    return refuse(`where_sql is not a valid SQL condition: ${message}${at}.`, HINT);
  }
  // DuckDB only serializes SELECT statements: a second statement of another kind (DROP, COPY, ATTACH, PRAGMA, ...)
  // lands here.
  if (/only select statements/i.test(message))
    return refuse(
      'where_sql holds more than one statement, or a statement that is not a condition.',
      `Remove the semicolon and what follows. ${HINT}`,
    );
  return refuse(`where_sql could not be parsed: ${message}.`, HINT);
}

/** The statement without its WHERE clause and source positions, as comparable text. */
function canonical(statement: unknown): string {
  return JSON.stringify(statement, (key, value: unknown) => {
    if (key === 'query_location') return undefined;
    if (key === 'where_clause') return null;
    return value;
  });
}
