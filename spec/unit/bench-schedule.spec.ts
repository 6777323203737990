import { describe, expect, it } from '@jest/globals';
import { parseOptions, seedFrom } from '../../bench/options.js';
import { derivedSeed, seededRandom, shuffled } from '../../bench/schedule.js';

describe('bench schedule: the order slices take turns in', () => {
  it('is a permutation of the contenders every slice, the input left as it was', () => {
    const contenders = ['raw node:http', 'raw fetch', 'httpbuilder-ts (fetch)'];
    const random = seededRandom(1);
    for (let slice = 0; slice < 50; slice++) expect(shuffled(contenders, random).toSorted()).toEqual(contenders.toSorted());
    expect(contenders).toEqual(['raw node:http', 'raw fetch', 'httpbuilder-ts (fetch)']);
  });

  it('repeats for a seed, and differs between seeds', () => {
    const schedule = (seed: number) => {
      const random = seededRandom(seed);
      return Array.from({ length: 40 }, () => shuffled(['A', 'B'], random).join('')).join(' ');
    };
    expect(schedule(42)).toBe(schedule(42));
    expect(schedule(42)).not.toBe(schedule(43));
  });

  it('has no short period for the garbage collector to lock onto (a rotation repeats every 2 slices of 2 contenders)', () => {
    const random = seededRandom(7);
    const firsts = Array.from({ length: 400 }, () => shuffled(['A', 'B'], random)[0]);
    for (const period of [2, 3, 4, 6, 8]) {
      const same = firsts.slice(period).filter((first, i) => first === firsts[i]).length / (firsts.length - period);
      // about half by chance; a pattern with this period would give 1
      expect(same).toBeGreaterThan(0.35);
      expect(same).toBeLessThan(0.65);
    }
    const aFirst = firsts.filter((first) => first === 'A').length / firsts.length;
    expect(aFirst).toBeGreaterThan(0.4);
    expect(aFirst).toBeLessThan(0.6);
  });

  it('takes its seed from --seed or BENCH_SEED, a fresh one otherwise, and refuses a negative one', () => {
    expect(parseOptions(['--seed', '0'], {}).seed).toBe(0);
    expect(parseOptions([], { BENCH_SEED: '12345' }).seed).toBe(12345);
    expect(parseOptions(['--seed=9'], { BENCH_SEED: '12345' }).seed).toBe(9);
    const fresh = parseOptions([], {}).seed;
    expect(Number.isInteger(fresh) && fresh >= 0 && fresh < 2 ** 32).toBe(true);
    expect(() => parseOptions(['--seed', '-1'], {})).toThrow("seed must be an integer >= 0, got '-1'");
    expect(() => parseOptions(['--seed', String(2 ** 32)], {})).toThrow('seed must be at most 4294967295 (32 bits)');
  });

  it('runs as many rounds in one process (--isolate=0) as an isolated group runs over its processes', () => {
    const isolated = parseOptions([], {});
    const inOne = parseOptions(['--isolate=0'], {});
    expect(inOne.rounds).toBe(isolated.rounds * isolated.processes);
    expect(inOne.processes).toBe(1);
    expect(parseOptions(['--isolate=0', '--rounds', '2', '--processes', '5'], {}).rounds).toBe(10);
    // what an isolated group's child is given: exactly its own rounds
    expect(parseOptions(['--isolate=0', '--rounds', '3', '--processes', '1'], {}).rounds).toBe(3);
    expect(parseOptions(['--rounds', '2', '--processes', '5'], {})).toMatchObject({ rounds: 2, processes: 5 });
  });

  it('the block tools read BENCH_SEED alone, with the same rules, whatever else the environment sets', () => {
    expect(seedFrom({ BENCH_SEED: '12345', BENCH_ROUNDS: 'not a number' })).toBe(12345);
    const fresh = seedFrom({ BENCH_SEED: '' });
    expect(Number.isInteger(fresh) && fresh >= 0 && fresh < 2 ** 32).toBe(true);
    expect(() => seedFrom({ BENCH_SEED: '-1' })).toThrow("seed must be an integer >= 0, got '-1'");
    expect(() => parseOptions([], { BENCH_ROUNDS: 'not a number' })).toThrow('rounds must be an integer');
  });

  it('gives each process and scenario a seed of its own, the same whenever that part runs again', () => {
    const labels = ['scenario a', 'scenario b', 'raw fetch,httpbuilder-ts (fetch) #1', 'raw fetch,httpbuilder-ts (fetch) #2'];
    const seeds = labels.map((label) => derivedSeed(7, label));
    expect(new Set(seeds).size).toBe(labels.length);
    expect(labels.map((label) => derivedSeed(7, label))).toEqual(seeds);
    expect(derivedSeed(8, 'scenario a')).not.toBe(seeds[0]);
    for (const seed of seeds) expect(Number.isInteger(seed) && seed >= 0 && seed < 2 ** 32).toBe(true);
  });
});
