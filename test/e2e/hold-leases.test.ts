import { startChildServer } from '../helpers/child-server.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * A process starting on a data dir another process serves released every request hold it did not own, live ones
 * included: an in-flight search then delivered rows with its credits released. Holds now carry their process's
 * lease; a starting process releases only expired ones.
 */

let app: TestApp;
beforeAll(async () => {
  // The app's clock is the real one: the second process reads leases against its own (system) clock.
  app = await startTestApp({
    contacts: 300,
    companies: 40,
    now: new Date().toISOString(),
    // Long enough for a second process to boot on a busy machine while the answer waits (8 s was not, once, with
    // the load average at 15).
    env: { CDS_TEST_ANSWER_DELAY_MS: '20000' },
  });
});
afterAll(async () => app.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('a second process starting on the same data dir leaves a live request hold alone; the request is charged', async () => {
  const { apiKey, accountId } = await app.createAccount('pro');
  const day = async () => {
    const c = (await app.services.state.snapshot(accountId, app.clock.now())).contact;
    if (c.kind !== 'windows') throw new Error('expected a windows plan');
    return c.day;
  };
  const search = app.request('POST', '/v1/contacts/search', { key: apiKey, body: { filter: {}, limit: 10 } });
  for (let i = 0; i < 100 && (await day()).held === 0; i++) await sleep(20);
  expect(await day()).toMatchObject({ held: 10, used: 0 });

  const other = await startChildServer(app.dataDir);
  try {
    expect(await day()).toMatchObject({ held: 10, used: 0 });
  } finally {
    await other.kill();
  }
  const res = await search;
  expect(res.status).toBe(200);
  expect(res.body.data).toHaveLength(10);
  await sleep(100);
  expect(await day()).toMatchObject({ held: 0, used: 10 });
}, 120_000);
