import { LISTS } from '../../src/domain/catalog/index.js';
import {
  classifyTitle,
  classifyTitleUncached,
  createTitleClassifier,
  JOB_FUNCTION_VALUES,
  SENIORITY_VALUES,
} from '../../src/domain/classify/index.js';
import { compilePhraseTable, rulesFor } from '../../src/domain/classify/phrase-table.js';
import { tokenizeTitle } from '../../src/domain/classify/tokens.js';
import { TITLE_CASES } from './titles.fixture.js';

describe('classifyTitle on real-world titles', () => {
  const rows = TITLE_CASES.map(([title, seniority, fn, founder = false]) => ({ title, seniority, fn, founder }));
  it.each(rows)('"$title" -> $seniority / $fn', ({ title, seniority, fn, founder }) => {
    expect(classifyTitle(title)).toEqual({ seniority, function: fn, founder });
  });

  it('covers every seniority and every job function at least three times', () => {
    expect(TITLE_CASES.length).toBeGreaterThanOrEqual(220);
    for (const s of SENIORITY_VALUES) expect([s, TITLE_CASES.filter((c) => c[1] === s).length >= 3]).toEqual([s, true]);
    for (const f of JOB_FUNCTION_VALUES)
      expect([f, TITLE_CASES.filter((c) => c[2] === f).length >= 3]).toEqual([f, true]);
  });

  it('lists each title once', () => {
    const titles = TITLE_CASES.map((c) => c[0]);
    expect(titles.filter((t, i) => titles.indexOf(t) !== i)).toEqual([]);
  });
});

describe('classifyTitle result types', () => {
  it('uses exactly the catalog slugs of seniority and function', () => {
    expect([...SENIORITY_VALUES].sort()).toEqual(LISTS.seniority!.values.map((v) => v.slug).sort());
    expect([...JOB_FUNCTION_VALUES].sort()).toEqual(LISTS.function!.values.map((v) => v.slug).sort());
  });

  it.each([null, undefined])('%p is unknown', (title) => {
    expect(classifyTitle(title)).toEqual({ seniority: 'unknown', function: 'other', founder: false });
  });
});

describe('spelling variants classify alike', () => {
  it.each([
    ['SR. SOFTWARE ENGINEER', 'sr software engineer'],
    ['Senior Software Engineer', 'Sr Software Engineer'],
    ['Co-Founder & CEO', 'cofounder and ceo'],
    ['Vice-President of Sales', 'VP of Sales'],
    ['V.P. Marketing', 'vp marketing'],
    ['Mgr, Accounts Payable', 'Manager, Accounts Payable'],
    ['Dir. of Engineering', 'Director of Engineering'],
    ['R&D Engineer', 'RD Engineer'],
    ['  Head of People  ', 'head of people'],
  ])('%j ~ %j', (a, b) => {
    expect(classifyTitle(a)).toEqual(classifyTitle(b));
  });
});

describe('tokenizeTitle', () => {
  it.each([
    ['R&D Manager', ['rd', 'manager']],
    ['Co-Founder & CEO', ['co', 'founder', 'and', 'ceo']],
    ['Sr. Eng, Payments', ['senior', 'engineer', '|', 'payments']],
    ['V.P. Sales', ['vp', 'sales']],
    ['E.V.P. - Operations', ['evp', '|', 'operations']],
    ['Geschäftsführer', ['geschaftsfuhrer']],
    ["Owner's Rep", ['owners', 'representative']],
    ['Engineer @ Acme', ['engineer', 'at', 'acme']],
    ['(Interim) CFO /', ['interim', '|', 'cfo']],
    ['FP&A Lead', ['fpa', 'lead']],
  ])('%j', (title, tokens) => {
    expect(tokenizeTitle(title)).toEqual(tokens);
  });
});

describe('phrase tables', () => {
  const match = compilePhraseTable([
    ...rulesFor('vp', ['vice president']),
    ...rulesFor('c', ['president', 'chief * officer']),
    ...rulesFor('partner', [{ phrase: 'partner', unlessPrev: ['business'], unlessNext: ['manager'] }]),
  ]);
  const values = (tokens: string[]) => match(tokens).map((h) => h.value);

  it.each([
    [['vice', 'president'], ['vp']],
    [['president'], ['c']],
    [['chief', 'nursing', 'officer'], ['c']],
    [['chief', 'information', 'security', 'officer'], ['c']],
    [['chief', '|', 'officer'], []],
    [['chief', 'a', 'b', 'c', 'd', 'e', 'officer'], []],
    [['hr', 'business', 'partner'], []],
    [['partner', 'manager'], []],
    [['senior', 'partner'], ['partner']],
  ])('%j -> %j', (tokens, expected) => {
    expect(values(tokens)).toEqual(expected);
  });

  it('counts clauses across breaks, "and" and prepositions', () => {
    expect(match(['president', 'of', 'x', 'and', 'partner']).map((h) => h.clause)).toEqual([0, 2]);
  });

  it.each([
    [[...rulesFor(1, ['head of']), ...rulesFor(2, ['head  of'])], /listed twice/],
    [rulesFor(1, ['* officer']), /malformed/],
    [rulesFor(1, ['chief *']), /malformed/],
    [rulesFor(1, ['chief * * officer']), /malformed/],
  ])('rejects a bad table %#', (rules, message) => {
    expect(() => compilePhraseTable(rules)).toThrow(message);
  });
});

describe('title cache', () => {
  it('stays within its bound and answers as the uncached rules do', () => {
    const classifier = createTitleClassifier(3);
    const titles = TITLE_CASES.slice(0, 10).map((c) => c[0]);
    for (const t of titles) expect(classifier.classify(t)).toEqual(classifyTitleUncached(t));
    expect(classifier.size()).toBe(3);
    for (const t of titles) expect(classifier.classify(t)).toEqual(classifyTitleUncached(t));
  });

  it('keys by lowercased title and skips empty input', () => {
    const classifier = createTitleClassifier(10);
    const first = classifier.classify('VP of Engineering');
    expect(classifier.classify('vp OF engineering')).toBe(first);
    classifier.classify(null);
    classifier.classify('   ');
    expect(classifier.size()).toBe(1);
  });
});
