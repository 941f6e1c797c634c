/**
 * Whether SQL text holds a comment (`-- …` or `/* … *\/`) outside string literals and quoted names.
 * The AST walk alone decides what a predicate means, so a comment could hide nothing from it; comments
 * are refused anyway so that the stored and logged where_sql reads exactly as it is applied.
 * Literal forms skipped: '…' ('' escapes), E'…' (backslash escapes too), $tag$…$tag$, "…" ("" escapes).
 * Unterminated literals end the scan; the parser reports them.
 */
export function hasComment(sql: string): boolean {
  return /--|\/\*/.test(outsideLiterals(sql));
}

/**
 * The SQL text with the inside of every string literal, quoted name and dollar-quoted string blanked out, so a
 * keyword test reads only what the parser reads as code.
 */
export function outsideLiterals(sql: string): string {
  let out = '';
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    let end = i + 1;
    if (c === "'") {
      end = skipQuoted(sql, i + 1, "'", isEscapeString(sql, i));
    } else if (c === '"') {
      end = skipQuoted(sql, i + 1, '"', false);
    } else if (c === '$') {
      const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(i))?.[0];
      if (tag !== undefined) {
        const close = sql.indexOf(tag, i + tag.length);
        end = close < 0 ? sql.length : close + tag.length;
      }
    }
    out += end === i + 1 ? c : ' '.repeat(end - i);
    i = end;
  }
  return out;
}

/** An E'…' string: the quote follows a lone E (not the end of a longer word). */
function isEscapeString(sql: string, quoteAt: number): boolean {
  return /[eE]/.test(sql[quoteAt - 1] ?? '') && !/[\p{L}\p{N}_$]/u.test(sql[quoteAt - 2] ?? '');
}

/** Index just past the closing quote; a doubled quote is an escaped one. */
function skipQuoted(sql: string, from: number, quote: string, backslashEscapes: boolean): number {
  let i = from;
  while (i < sql.length) {
    const c = sql[i]!;
    if (backslashEscapes && c === '\\') {
      i += 2;
    } else if (c === quote) {
      if (sql[i + 1] === quote) i += 2;
      else return i + 1;
    } else {
      i += 1;
    }
  }
  return sql.length;
}
