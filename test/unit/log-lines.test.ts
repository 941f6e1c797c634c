import { loggedRoute } from '../../src/http/middleware/request-log.js';
import { LogSink, makeLogger, prettyLine } from '../../src/log.js';

/** The log lines a person reads on a terminal, the ones kept back during `cds start`, and the routes logged. */
function collect(pretty: boolean): { sink: LogSink; text: () => string } {
  const out: string[] = [];
  return { sink: new LogSink({ write: (t: string) => out.push(t) }, pretty), text: () => out.join('') };
}

describe('log lines', () => {
  it('are pino JSON lines off a terminal', () => {
    const { sink, text } = collect(false);
    makeLogger('info', sink).info({ release: 'r1', contacts: 5 }, 'data release serving');
    expect(JSON.parse(text())).toMatchObject({ level: 30, service: 'cds', release: 'r1', msg: 'data release serving' });
  });

  it('are one human line each on a terminal: time, level, message, key=value', () => {
    const { sink, text } = collect(true);
    const log = makeLogger('info', sink);
    log.info({ release: 'r2', previous: 'r1', contacts: 300 }, 'data release switched');
    log.warn({ note: 'two words' }, 'careful');
    log.debug('not shown at info');
    const lines = text().split('\n');
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d INFO {2}data release switched release=r2 previous=r1 contacts=300$/);
    expect(lines[1]).toMatch(/^\d\d:\d\d:\d\d WARN {2}careful note="two words"$/);
    expect(lines).toHaveLength(3);
  });

  it('show a request as method, route, status, time and request id', () => {
    const line = JSON.stringify({
      level: 30,
      time: Date.UTC(2026, 0, 1, 12, 0, 0),
      service: 'cds',
      method: 'POST',
      route: '/v1/enrichments',
      status: 200,
      ms: 12.3,
      request_id: 'req_abc',
      msg: 'request',
    });
    expect(prettyLine(line)).toMatch(/^\d\d:\d\d:\d\d INFO {2}POST \/v1\/enrichments 200 12\.3ms req_abc\n$/);
  });

  it("show an error's message on the line and its stack below it", () => {
    const { sink, text } = collect(true);
    makeLogger('info', sink).error({ err: new Error('disk full') }, 'export failed');
    const [first, second] = text().split('\n');
    expect(first).toMatch(/ERROR export failed err="disk full"$/);
    expect(second).toMatch(/^ {4}Error: disk full/);
  });

  it('pass a line that is not JSON unchanged', () => {
    expect(prettyLine('plain text\n')).toBe('plain text\n');
  });

  it('are kept back while held and written in order on release', () => {
    const { sink, text } = collect(false);
    const log = makeLogger('info', sink);
    sink.hold();
    log.info('first');
    log.info('second');
    expect(text()).toBe('');
    sink.release();
    log.info('third');
    expect(
      text()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).msg),
    ).toEqual(['first', 'second', 'third']);
  });
});

describe('the logged route', () => {
  it('is the REST route template when the router matched one', () => {
    expect(loggedRoute({ path: '/v1/exports/exp_123', _matchedRoute: '/v1/exports/:id' })).toBe('/v1/exports/:id');
  });

  it('leaves out link ids and anything shaped like an API key', () => {
    expect(loggedRoute({ path: '/upload/upl_abc123/start' })).toBe('/upload/:upload_id/start');
    expect(loggedRoute({ path: '/files/exports/exp_1.csv' })).toBe('/files/exports/:file');
    expect(loggedRoute({ path: '/x/cds_AbC123secret' })).toBe('/x/cds_…');
    expect(loggedRoute({ path: `/${'a'.repeat(300)}` })).toHaveLength(201);
  });
});
