import { casLost, casWritten, compareAndSet, CompareAndSetExhausted } from '../../src/db/compare-and-set';

describe('compareAndSet', () => {
  test('retries a lost race and returns the value of the write that landed', async () => {
    const seen: number[] = [];
    const v = await compareAndSet(
      'thing',
      async (n) => {
        seen.push(n);
        return n < 2 ? casLost : casWritten(`wrote on ${n}`);
      },
      { jitterMs: 0 },
    );
    expect(v).toBe('wrote on 2');
    expect(seen).toEqual([0, 1, 2]);
  });

  test('exhaustion is an error that names the write, never a silent success', async () => {
    let tries = 0;
    const p = compareAndSet(
      'task board of project p1',
      async () => {
        tries += 1;
        return casLost;
      },
      { attempts: 4, jitterMs: 0 },
    );
    await expect(p).rejects.toBeInstanceOf(CompareAndSetExhausted);
    await expect(
      compareAndSet('task board of project p1', async () => casLost, { attempts: 2, jitterMs: 0 }),
    ).rejects.toThrow(/task board of project p1: gave up after 2/);
    expect(tries).toBe(4);
  });
});
