import { Injectable } from '@nestjs/common';
import type { Localized } from '../../common/i18n/language';

/**
 * What a post-type module tells the base about itself. Registering a type is what makes the base
 * accept it: slugs, statuses, counts and errors all work from this definition.
 */
export interface PostTypeDefinition {
  /** Stored in `posts.type`; at most 20 characters, e.g. `cal_event`. */
  type: string;
  /** Builds the type's error codes: `venue` → `rest-venue-not-found`, `venue-is-in-trash`. */
  noun: string;
  /** The type's name in messages, in every language. */
  label: Localized;
  /** Taxonomies whose terms posts of this type may carry; their counts include this type. */
  taxonomies?: readonly string[];
}

/**
 * The post types the running service knows. Filled by `PostsModule.forPostType()` at start-up and read
 * by the base: posts of an unregistered type are refused, terms of an undeclared taxonomy too, and
 * start-up fails when a type declares a taxonomy no module registered.
 */
@Injectable()
export class PostTypeRegistry {
  private readonly types = new Map<string, PostTypeDefinition>();
  /** Taxonomies modules added to a type they do not own (an audiences taxonomy on events). */
  private readonly added = new Map<string, Set<string>>();

  register(definition: PostTypeDefinition): void {
    if (definition.type.length > 20) throw new Error(`post type "${definition.type}" is longer than 20 characters`);
    const existing = this.types.get(definition.type);
    if (existing && existing !== definition) throw new Error(`post type "${definition.type}" is registered twice`);
    this.types.set(definition.type, definition);
  }

  /** The registered definition; throws for a type no module registered (a programming error). */
  get(type: string): PostTypeDefinition {
    const definition = this.types.get(type);
    if (!definition) {
      throw new Error(`post type "${type}" is not registered: import its module (PostsModule.forPostType)`);
    }
    return definition;
  }

  /** Lets posts of `type` carry terms of `taxonomy` too (a module's taxonomy on a type it does not own). */
  carry(type: string, taxonomy: string): void {
    this.added.set(type, (this.added.get(type) ?? new Set()).add(taxonomy));
  }

  /** The taxonomies posts of `type` may carry: its own and those modules added. */
  taxonomiesOf(type: string): string[] {
    return [...(this.get(type).taxonomies ?? []), ...(this.added.get(type) ?? [])];
  }

  /** Throws unless `type` is registered and carries `taxonomy` (declared, or added by a module). */
  assertCarries(type: string, taxonomy: string): void {
    if (!this.taxonomiesOf(type).includes(taxonomy)) {
      throw new Error(`post type "${type}" does not declare the taxonomy "${taxonomy}"`);
    }
  }

  has(type: string): boolean {
    return this.types.has(type);
  }

  all(): PostTypeDefinition[] {
    return [...this.types.values()];
  }

  /** The post types whose published posts count towards a term of this taxonomy. */
  typesForTaxonomy(taxonomy: string): string[] {
    return this.all()
      .filter((d) => this.taxonomiesOf(d.type).includes(taxonomy))
      .map((d) => d.type);
  }
}
