import { AND, BREAK } from './tokens.js';

/** One row of a rule table: a whole-word phrase and what it means. */
export interface PhraseRule<T> {
  /** Space-separated words; `*` stands for one to four words of the same role ("chief * officer"). */
  phrase: string;
  value: T;
  /** The rule does not fire right after one of these words ("product owner"). */
  unlessPrev?: readonly string[];
  /** The rule does not fire right before one of these words ("partner manager"). */
  unlessNext?: readonly string[];
}

/** A phrase found in a title; `clause` counts the breaks, "and"s and prepositions before it. */
export interface PhraseHit<T> {
  value: T;
  start: number;
  clause: number;
}

export type PhraseMatcher<T> = (tokens: readonly string[]) => PhraseHit<T>[];

// Words that end one noun group and start the next ("Head of Sales for Healthcare").
const CLAUSE_WORDS = new Set([BREAK, AND, 'of', 'for', 'in', 'at', 'on', 'with', 'to', 'from', 'by', 'within']);
const WILDCARD = '*';
const MAX_GAP = 4;

interface CompiledRule<T> {
  parts: readonly string[];
  literals: number;
  value: T;
  unlessPrev: ReadonlySet<string> | null;
  unlessNext: ReadonlySet<string> | null;
}

/**
 * Compiles a table once: rules are indexed by first word and tried longest first, so
 * "vice president" wins over "president" and each word belongs to at most one hit.
 * A phrase listed twice is a table bug and throws at load time.
 */
export function compilePhraseTable<T>(rules: readonly PhraseRule<T>[]): PhraseMatcher<T> {
  const byFirst = new Map<string, CompiledRule<T>[]>();
  const seen = new Set<string>();
  for (const rule of rules) {
    const parts = rule.phrase.trim().split(/\s+/);
    const key = parts.join(' ');
    if (seen.has(key)) throw new Error(`title rules: phrase "${key}" is listed twice`);
    seen.add(key);
    checkParts(parts, key);
    const compiled: CompiledRule<T> = {
      parts,
      literals: parts.filter((p) => p !== WILDCARD).length,
      value: rule.value,
      unlessPrev: rule.unlessPrev ? new Set(rule.unlessPrev) : null,
      unlessNext: rule.unlessNext ? new Set(rule.unlessNext) : null,
    };
    const list = byFirst.get(parts[0]!) ?? [];
    list.push(compiled);
    byFirst.set(parts[0]!, list);
  }
  for (const list of byFirst.values()) list.sort((a, b) => b.literals - a.literals);
  return (tokens) => scan(byFirst, tokens);
}

function checkParts(parts: readonly string[], key: string): void {
  parts.forEach((part, i) => {
    const bad = part === '' || (part === WILDCARD && (i === 0 || i === parts.length - 1 || parts[i + 1] === WILDCARD));
    if (bad) throw new Error(`title rules: malformed phrase "${key}"`);
  });
}

function scan<T>(byFirst: ReadonlyMap<string, CompiledRule<T>[]>, tokens: readonly string[]): PhraseHit<T>[] {
  const hits: PhraseHit<T>[] = [];
  let clause = 0;
  let i = 0;
  while (i < tokens.length) {
    const token = tokens[i]!;
    const end = matchAt(byFirst.get(token), tokens, i, hits, clause);
    if (end > i) {
      i = end;
      continue;
    }
    if (CLAUSE_WORDS.has(token)) clause++;
    i++;
  }
  return hits;
}

/** Tries the rules starting with tokens[start]; records the first that fits and returns its end. */
function matchAt<T>(
  rules: CompiledRule<T>[] | undefined,
  tokens: readonly string[],
  start: number,
  hits: PhraseHit<T>[],
  clause: number,
): number {
  if (!rules) return -1;
  for (const rule of rules) {
    if (rule.unlessPrev && start > 0 && rule.unlessPrev.has(tokens[start - 1]!)) continue;
    const end = endOf(rule.parts, tokens, start);
    if (end < 0) continue;
    if (rule.unlessNext && end < tokens.length && rule.unlessNext.has(tokens[end]!)) continue;
    hits.push({ value: rule.value, start, clause });
    return end;
  }
  return -1;
}

function endOf(parts: readonly string[], tokens: readonly string[], start: number): number {
  let pos = start;
  for (let k = 0; k < parts.length; k++) {
    const part = parts[k]!;
    if (part !== WILDCARD) {
      if (tokens[pos] !== part) return -1;
      pos++;
      continue;
    }
    const next = parts[++k]!;
    let found = -1;
    for (let j = pos + 1; j <= pos + MAX_GAP && j < tokens.length; j++) {
      if (tokens[j - 1] === BREAK) break;
      if (tokens[j] === next) {
        found = j;
        break;
      }
    }
    if (found < 0) return -1;
    pos = found + 1;
  }
  return pos;
}

/** A phrase alone, or with its exceptions. */
export type PhraseSpec = string | { phrase: string; unlessPrev?: readonly string[]; unlessNext?: readonly string[] };

/** Gives every phrase of a group the same value; tables read as "value: phrases". */
export function rulesFor<T>(value: T, phrases: readonly PhraseSpec[]): PhraseRule<T>[] {
  return phrases.map((p) => (typeof p === 'string' ? { phrase: p, value } : { ...p, value }));
}
