import { docsKeyScript, fillKey, keyFromHash } from '../../src/http/openapi/docs-key.js';

/** The /docs page's script (docs-key.ts): the key a console link passes in the fragment fills in the commands. */
describe('docs key fill-in', () => {
  it('reads a key-shaped value from #key=…, and nothing else', () => {
    expect(keyFromHash('#key=cds_AbCdEf123456_-x')).toBe('cds_AbCdEf123456_-x');
    expect(keyFromHash('#contacts.search&key=cds_AbCdEf123456')).toBe('cds_AbCdEf123456');
    expect(keyFromHash('#key=cds_AbCdEf123456&x=1')).toBe('cds_AbCdEf123456');
    expect(keyFromHash('')).toBeNull();
    expect(keyFromHash('#contacts.search')).toBeNull();
    expect(keyFromHash('#monkey=cds_AbCdEf123456')).toBeNull();
    expect(keyFromHash('#key=short')).toBeNull();
    // Shell text in a crafted link never reaches a command someone copies.
    expect(keyFromHash(`#key=${encodeURIComponent('x"; rm -rf ~; echo "')}`)).toBeNull();
    expect(keyFromHash('#key=%E0%A4%A')).toBeNull();
  });

  it('puts the key in place of $CDS_API_KEY in every snippet', () => {
    const snippets = [
      { textContent: 'curl -H "Authorization: Bearer $CDS_API_KEY" x' },
      { textContent: 'curl -H "Authorization: Bearer $CDS_ADMIN_TOKEN" x' },
      { textContent: '$CDS_API_KEY $CDS_API_KEY' },
    ];
    expect(fillKey(snippets, 'cds_key12345')).toBe(2);
    expect(snippets.map((s) => s.textContent)).toEqual([
      'curl -H "Authorization: Bearer cds_key12345" x',
      'curl -H "Authorization: Bearer $CDS_ADMIN_TOKEN" x',
      'cds_key12345 cds_key12345',
    ]);
  });

  it('the served script fills the page and drops the fragment from the address bar', () => {
    const run = (hash: string) => {
      const snippets = [{ textContent: 'curl -H "X-API-Key: $CDS_API_KEY"' }];
      const note = { textContent: 'placeholder' };
      const replaced: string[] = [];
      const page = {
        location: { hash, pathname: '/docs', search: '' },
        history: { replaceState: (_s: unknown, _t: string, url: string) => replaced.push(url) },
        document: {
          querySelectorAll: (sel: string) => (sel === 'code[data-snippet]' ? snippets : []),
          getElementById: (id: string) => (id === 'key-note' ? note : null),
        },
      };
      new Function('location', 'history', 'document', docsKeyScript())(page.location, page.history, page.document);
      return { text: snippets[0]!.textContent, note: note.textContent, replaced };
    };
    const filled = run('#key=cds_AbCdEf123456');
    expect(filled.text).toBe('curl -H "X-API-Key: cds_AbCdEf123456"');
    expect(filled.replaced).toEqual(['/docs']);
    expect(filled.note).toMatch(/console passed/);
    expect(run('#contacts.search')).toEqual({
      text: 'curl -H "X-API-Key: $CDS_API_KEY"',
      note: 'placeholder',
      replaced: [],
    });
  });
});
