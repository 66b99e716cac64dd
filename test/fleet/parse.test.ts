import { describe, expect, it } from 'vitest';
import { parseDuration, shortAge } from '../../src/text/duration';
import { parseLabelSelector } from '../../src/selection/labels';
import { UsageError } from '../../src/runtime/errors';

describe('durations', () => {
  it('reads 90s, 30m, 2h, 7d, compounds and plain seconds', () => {
    expect(parseDuration('90s', '--x')).toBe(90_000);
    expect(parseDuration('30m', '--x')).toBe(1_800_000);
    expect(parseDuration('2h', '--x')).toBe(7_200_000);
    expect(parseDuration('7d', '--x')).toBe(604_800_000);
    expect(parseDuration('1h30m', '--x')).toBe(5_400_000);
    expect(parseDuration('15', '--x')).toBe(15_000);
  });

  it('rejects a malformed or zero duration naming the flag', () => {
    for (const bad of ['', '7 days', '-5s', '1w', '0s', 'h']) expect(() => parseDuration(bad, '--idle-for')).toThrow(/--idle-for/);
    expect(() => parseDuration('1y', '--older-than')).toThrow(UsageError);
  });

  it('prints ages as kubectl does', () => {
    expect(shortAge(45_000)).toBe('45s');
    expect(shortAge(12 * 60_000)).toBe('12m');
    expect(shortAge(5 * 3_600_000)).toBe('5h');
    expect(shortAge(3 * 86_400_000)).toBe('3d');
  });
});

describe('label selectors on metadata', () => {
  const m = { team: 'infra', tier: 'gold' };
  it('key=value, key==value, key!=value, key and !key, all required', () => {
    expect(parseLabelSelector('team=infra')(m)).toBe(true);
    expect(parseLabelSelector('team==infra,tier=gold')(m)).toBe(true);
    expect(parseLabelSelector('team=infra,tier=silver')(m)).toBe(false);
    expect(parseLabelSelector('team!=web')(m)).toBe(true);
    expect(parseLabelSelector('owner!=bob')(m)).toBe(true);
    expect(parseLabelSelector('team!=infra')(m)).toBe(false);
    expect(parseLabelSelector('tier')(m)).toBe(true);
    expect(parseLabelSelector('!draft')(m)).toBe(true);
    expect(parseLabelSelector('!team')(m)).toBe(false);
    expect(parseLabelSelector('team')(undefined)).toBe(false);
    expect(parseLabelSelector('team=')({ team: '' })).toBe(true);
  });

  it('rejects a malformed selector naming the flag', () => {
    for (const bad of ['', 'a=b,,c', '=v', 'a=b=c', '!', '!a=b', 'a in (x,y)', 'a b'])
      expect(() => parseLabelSelector(bad, '--selector')).toThrow(/--selector/);
  });
});
