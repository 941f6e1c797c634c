import { type ListValue, listValues } from '../../src/domain/catalog/index.js';
import type { Rng } from './rng.js';
import { SECTORS, sectorOfLabel } from './vocab/sectors.js';
import { Weighted } from './weighted.js';

/** Industries people search for most; they get a larger share of companies. */
const POPULAR =
  /software development|it services|financial services|hospitals|marketing|staffing|retail|construction|higher education|real estate|business consulting|advertising|technology, information|manufacturing|banking|insurance/i;

interface Table {
  sectors: Weighted<string>;
  bySector: Map<string, Weighted<ListValue>>;
  any: Weighted<ListValue>;
}

let table: Table | undefined;

/** Groups the catalog's industries by sector; sectors without any industry in the catalog are skipped. */
function build(): Table {
  const groups = new Map<string, ListValue[]>();
  for (const v of listValues('industry')) {
    const s = sectorOfLabel(v.label);
    let g = groups.get(s);
    if (!g) {
      g = [];
      groups.set(s, g);
    }
    g.push(v);
  }
  const weigh = (v: ListValue): readonly [ListValue, number] => [v, POPULAR.test(v.label) ? 5 : 1];
  return {
    sectors: new Weighted([...groups.keys()].map((s) => [s, SECTORS[s]?.weight ?? 1] as const)),
    bySector: new Map([...groups].map(([s, vs]) => [s, new Weighted(vs.map(weigh))])),
    any: new Weighted(listValues('industry').map(weigh)),
  };
}

export interface IndustryPick {
  sector: string;
  /** Labels (a few as slugs, as some sources send them). */
  values: string[];
}

/** A sector and 1-3 industries: the first from the sector, others mostly from it too. */
export function pickIndustries(rng: Rng): IndustryPick {
  table ??= build();
  const sector = table.sectors.pick(rng);
  const own = table.bySector.get(sector)!;
  const count = rng.chance(0.55) ? 1 : rng.chance(0.7) ? 2 : 3;
  const picked: ListValue[] = [own.pick(rng)];
  for (let i = 1; i < count; i++) {
    const v = (rng.chance(0.6) ? own : table.any).pick(rng);
    if (!picked.includes(v)) picked.push(v);
  }
  return { sector, values: picked.map((v) => (rng.chance(0.05) ? v.slug : v.label)) };
}
