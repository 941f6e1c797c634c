import { Worker } from 'node:worker_threads';
import type { EmployerRef } from '../../loaders/load/company-row.js';
import { packEmployers, unpackEmployers } from '../../loaders/load/employers-message.js';

/** The employers sent to the load's workers (loaders/load/employers-message.ts): every field comes back as it was. */

const employers: EmployerRef[] = [
  { id: 'c1', name: 'Acme, Inc.', domain: 'acme.com', nameNorm: 'acme', isPublic: true },
  { id: 'c2', name: 'Line\nbreak — Ünïcödé 株式会社 😀', domain: null, nameNorm: null, isPublic: false },
  { id: '', name: '', domain: '', nameNorm: '', isPublic: false },
  { id: 'c4', name: 'Zeta', domain: 'zeta.io', nameNorm: null, isPublic: true },
];

test('pack then unpack keeps every employer, nulls and empty strings apart', () => {
  const back = unpackEmployers(packEmployers(employers));
  expect([...back.values()]).toEqual(employers);
  expect([...back.keys()]).toEqual(employers.map((e) => e.id));
});

test('no employers', () => {
  expect(unpackEmployers(packEmployers([])).size).toBe(0);
});

test('the message crosses to a worker thread intact', async () => {
  const worker = new Worker(
    `const { parentPort } = require('node:worker_threads');
     parentPort.once('message', (m) => parentPort.postMessage(m));`,
    { eval: true },
  );
  try {
    const echoed = await new Promise<unknown>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.postMessage(packEmployers(employers));
    });
    expect([...unpackEmployers(echoed as ReturnType<typeof packEmployers>).values()]).toEqual(employers);
  } finally {
    await worker.terminate();
  }
});

test('a base of JSON employers, replaced where the message holds the same id', () => {
  const base: EmployerRef[] = [
    { id: 'c1', name: 'Old Acme', domain: 'old-acme.com', nameNorm: 'old acme', isPublic: false },
    { id: 'c9', name: 'Only in the base', domain: null, nameNorm: 'only in the base', isPublic: true },
  ];
  const merged = unpackEmployers(packEmployers(employers), [
    JSON.stringify(base.slice(0, 1)),
    JSON.stringify(base.slice(1)),
  ]);
  expect(merged.get('c1')).toEqual(employers[0]);
  expect(merged.get('c9')).toEqual(base[1]);
  expect(merged.size).toBe(employers.length + 1);
});
