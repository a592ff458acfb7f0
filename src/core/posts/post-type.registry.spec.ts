import { describe, expect, it } from '@jest/globals';
import { TaxonomyRegistry } from '../terms/taxonomy.registry';
import { PostTypeTaxonomiesCheck } from './post-type-taxonomies.check';
import { PostTypeRegistry, type PostTypeDefinition } from './post-type.registry';

const label = { en: 'speaker', de: 'Redner' };
const speaker: PostTypeDefinition = { type: 'cal_speaker', noun: 'speaker', label, taxonomies: ['post_tag'] };

describe('PostTypeRegistry', () => {
  it('refuses a type nobody registered, naming how to register it', () => {
    expect(() => new PostTypeRegistry().get('cal_speaker')).toThrow(/not registered.*forPostType/);
  });

  it('refuses a name longer than the column and a second, different registration of one type', () => {
    const registry = new PostTypeRegistry();
    expect(() => registry.register({ ...speaker, type: 'x'.repeat(21) })).toThrow(/longer than 20/);
    registry.register(speaker);
    registry.register(speaker);
    expect(() => registry.register({ ...speaker, noun: 'talker' })).toThrow(/registered twice/);
  });

  it('refuses terms of a taxonomy the type does not declare', () => {
    const registry = new PostTypeRegistry();
    registry.register(speaker);
    expect(() => registry.assertCarries('cal_speaker', 'post_tag')).not.toThrow();
    expect(() => registry.assertCarries('cal_speaker', 'cal_events_cat')).toThrow(/does not declare/);
    expect(() => registry.assertCarries('cal_unknown', 'post_tag')).toThrow(/not registered/);
  });
});

describe('TaxonomyRegistry', () => {
  it('refuses a taxonomy nobody registered', () => {
    expect(() => new TaxonomyRegistry().get('post_tag')).toThrow(/not registered.*forTaxonomy/);
  });
});

describe('PostTypeTaxonomiesCheck', () => {
  it('fails start-up naming the type and the missing taxonomy', () => {
    const types = new PostTypeRegistry();
    types.register(speaker);
    const taxonomies = new TaxonomyRegistry();
    expect(() => new PostTypeTaxonomiesCheck(types, taxonomies).onApplicationBootstrap()).toThrow(
      /"cal_speaker" → "post_tag".*TagsModule/,
    );
    taxonomies.register({ taxonomy: 'post_tag', noun: 'tag', hierarchical: false, label, restBase: 'tags' });
    expect(() => new PostTypeTaxonomiesCheck(types, taxonomies).onApplicationBootstrap()).not.toThrow();
  });
});
