import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { derivedStoresOf, type DerivedStore, WithDerivedStores } from './derived-stores';

const store = (name: string): DerivedStore => ({ name, tables: [], fill: () => Promise.resolve() });

describe('derived stores', () => {
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
