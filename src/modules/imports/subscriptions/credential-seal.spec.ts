import { describe, expect, it } from '@jest/globals';
import type { AppConfig } from '../../../config/app-config';
import { CredentialSeal } from './credential-seal';

const A = 'key-a-0123456789abcdef0123456789abcdef';
const B = 'key-b-0123456789abcdef0123456789abcdef';
const sealWith = (current: string, previous: string[] = []) =>
  new CredentialSeal({ credentialKeys: { current, previous } } as unknown as AppConfig);

describe('CredentialSeal', () => {
  it('seals so that the value is unreadable, different each time, and opens again', () => {
    const seal = sealWith(A);
    const one = seal.seal('app password');
    const two = seal.seal('app password');
    expect(one).toMatch(/^sealed:v1:[0-9a-f]{8}:/);
    expect(one).not.toContain('app password');
    expect(one).not.toBe(two);
    expect(seal.open(one)).toBe('app password');
    expect(seal.open(null)).toBe('');
    expect(seal.needsResealing(one)).toBe(false);
  });

  it('opens a value sealed with a previous key and asks for it to be sealed again', () => {
    const old = sealWith(A).seal('pw');
    const rotated = sealWith(B, [A]);
    expect(rotated.open(old)).toBe('pw');
    expect(rotated.needsResealing(old)).toBe(true);
    expect(rotated.needsResealing('readable legacy')).toBe(true);
    expect(rotated.open('readable legacy')).toBe('readable legacy');
  });

  it('refuses, with how to mend it, a value no configured key opens, or one tampered with', () => {
    const sealed = sealWith(A).seal('pw');
    const other = sealWith(B);
    expect(other.needsResealing(sealed)).toBe(false);
    expect(() => other.open(sealed)).toThrow(/CREDENTIALS_KEY/);
    const tampered = `${sealed.slice(0, -4)}AAA=`;
    expect(() => sealWith(A).open(tampered)).toThrow(/does not open/);
  });

  it('cannot seal without a key', () => {
    expect(() => sealWith('').seal('pw')).toThrow();
    expect(sealWith('').needsResealing('readable')).toBe(false);
  });
});
