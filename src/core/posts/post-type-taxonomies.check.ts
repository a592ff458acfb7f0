import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { TaxonomyRegistry } from '../terms/taxonomy.registry';
import { PostTypeRegistry } from './post-type.registry';

/**
 * Refuses to start when a post type declares a taxonomy that no module registered (say `TagsModule` was
 * left out), naming both, instead of failing with 500s on the first request that touches the terms.
 */
@Injectable()
export class PostTypeTaxonomiesCheck implements OnApplicationBootstrap {
  constructor(
    private readonly postTypes: PostTypeRegistry,
    private readonly taxonomies: TaxonomyRegistry,
  ) {}

  onApplicationBootstrap(): void {
    const missing = this.postTypes
      .all()
      .flatMap((d) => (d.taxonomies ?? []).filter((t) => !this.taxonomies.has(t)).map((t) => `"${d.type}" → "${t}"`));
    if (missing.length > 0) {
      throw new Error(
        `post types declare taxonomies that no module registered (${missing.join(', ')}); import the taxonomy modules, e.g. CategoriesModule and TagsModule`,
      );
    }
  }
}
