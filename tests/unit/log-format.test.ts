/**
 * Logs for people: a local run on a terminal reads as lines, machines get JSON,
 * and the workflow bundler's screenful of webpack output stays out of a normal start.
 */
import { Writable } from 'node:stream';
import { createLogger, logFormatFor } from '../../src/logger';
import { PinoTemporalLogger } from '../../src/observability/temporal-runtime';

describe('LOG_FORMAT', () => {
  const at = (tty: boolean, ci = false, nodeEnv = 'development') => ({ tty, ci, nodeEnv });
  it('auto is pretty only for a person at a terminal, outside CI and production', () => {
    expect(logFormatFor('auto', at(true))).toBe('pretty');
    expect(logFormatFor('auto', at(false))).toBe('json');
    expect(logFormatFor('auto', at(true, true))).toBe('json');
    expect(logFormatFor('auto', at(true, false, 'production'))).toBe('json');
  });
  it('an explicit choice wins', () => {
    expect(logFormatFor('json', at(true))).toBe('json');
    expect(logFormatFor('pretty', at(false, true, 'production'))).toBe('pretty');
  });
});

function capture() {
  const out: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      out.push(chunk.toString());
      done();
    },
  });
  return { out, stream };
}

it('pretty lines carry the time, level, message and fields, not JSON', () => {
  const { out, stream } = capture();
  createLogger('info', 'scriptorium', stream, 'pretty').info({ turnId: 't1' }, 'turn started');
  const text = out.join('');
  expect(text).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO \(scriptorium\): turn started/);
  expect(text).toContain('"turnId":"t1"');
  expect(() => JSON.parse(text)).toThrow();
});

it('json stays one object per line', () => {
  const { out, stream } = capture();
  createLogger('info', 'scriptorium', stream).info({ turnId: 't1' }, 'turn started');
  expect(JSON.parse(out[0]!)).toMatchObject({ level: 30, name: 'scriptorium', turnId: 't1', msg: 'turn started' });
});

it('the webpack summary of the workflow bundle is logged at debug, other Temporal info lines at info', () => {
  const summary =
    'asset workflow-bundle-3f2a.js 1.31 MiB [emitted] (name: main)\nruntime modules 670 bytes 3 modules\nwebpack 5.99.9 compiled successfully in 2154 ms';
  const atInfo = capture();
  const info = new PinoTemporalLogger(createLogger('info', 't', atInfo.stream));
  info.info(summary);
  info.info('Worker state changed');
  expect(atInfo.out.map((l) => JSON.parse(l).msg)).toEqual(['Worker state changed']);
  const atDebug = capture();
  new PinoTemporalLogger(createLogger('debug', 't', atDebug.stream)).info(summary);
  expect(JSON.parse(atDebug.out[0]!)).toMatchObject({ level: 20, msg: summary });
});
