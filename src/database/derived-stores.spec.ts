import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { derivedStoresOf, type DerivedStore, versionOf, WithDerivedStores } from './derived-stores';

const store = (name: string): DerivedStore => ({ name, version: 'v', tables: [], fill: () => Promise.resolve() });

describe('derived stores', () => {
  it('versions the deriving code by its source: any change of it is a new version, the same code the same one', () => {
    const words = (text: string) => text.split(' ');
    const sameWords = (text: string) => text.split(' ');
    const otherWords = (text: string) => text.split(/\s+/);
    expect(versionOf(words)).toBe(versionOf(sameWords));
    expect(versionOf(words)).not.toBe(versionOf(otherWords));
    // Order and boundaries count: two functions are not their concatenation.
    expect(versionOf(words, otherWords)).not.toBe(versionOf(otherWords, words));
    expect(versionOf(words)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('collects the stores modules declare, in module order, and refuses a name declared twice', () => {
    @WithDerivedStores(store('a'), store('b'))
    class First {}
    class Plain {}
    @WithDerivedStores(store('c'))
    class Second {}
    @WithDerivedStores(store('a'))
    class Clash {}
    expect(derivedStoresOf([First, Plain, Second]).map((s) => s.name)).toEqual(['a', 'b', 'c']);
    expect(() => derivedStoresOf([First, Clash])).toThrow('derived store a is declared twice');
  });
});
