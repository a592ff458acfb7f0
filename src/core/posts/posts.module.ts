import { DynamicModule, Global, Module, type Provider } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SiteIdentity } from './site-identity';
import { AttachmentDetailsEntity } from './attachments/attachment-details.entity';
import { ATTACHMENT_TYPE, AttachmentsService } from './attachments/attachments.service';
import { FuturePostsPublisher } from './future-posts.publisher';
import { PostPasswords } from './post-passwords';
import { PostRecordsService } from './post-records.service';
import { PostTypeTaxonomiesCheck } from './post-type-taxonomies.check';
import { PostSlugsService } from './post-slugs.service';
import { PostTypeRegistry, type PostTypeDefinition } from './post-type.registry';
import { PostEntity } from './post.entity';

/** Attachments are a post type of the base itself: images referenced by events, venues and organizers. */
export const ATTACHMENT_POST_TYPE: PostTypeDefinition = {
  type: ATTACHMENT_TYPE,
  noun: 'attachment',
  label: { en: 'attachment', de: 'Anhang' },
};

/**
 * The posts base: the shared `posts` table, the post-type registry, slugs, statuses, scheduled
 * publishing and attachments. A post-type module imports `PostsModule.forPostType({...})`. Global: the one
 * registry and the record services every post type (and the links between them) build on.
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([PostEntity, AttachmentDetailsEntity])],
  providers: [
    PostTypeRegistry,
    PostSlugsService,
    AttachmentsService,
    FuturePostsPublisher,
    PostRecordsService,
    PostPasswords,
    PostTypeTaxonomiesCheck,
    SiteIdentity,
    {
      provide: 'post-type:attachment',
      useFactory: (registry: PostTypeRegistry) => registry.register(ATTACHMENT_POST_TYPE),
      inject: [PostTypeRegistry],
    },
  ],
  exports: [
    PostTypeRegistry,
    PostSlugsService,
    AttachmentsService,
    FuturePostsPublisher,
    PostRecordsService,
    PostPasswords,
    SiteIdentity,
    TypeOrmModule,
  ],
})
export class PostsModule {
  /**
   * Registers a post type with the base when the application starts.
   * @example imports: [PostsModule.forPostType({ type: 'cal_venue', noun: 'venue', label: {...} })]
   */
  static forPostType(definition: PostTypeDefinition): DynamicModule {
    const registration: Provider = {
      provide: `post-type:${definition.type}`,
      useFactory: (registry: PostTypeRegistry) => {
        registry.register(definition);
        return definition;
      },
      inject: [PostTypeRegistry],
    };
    return { module: PostTypeRegistrationModule, providers: [registration], exports: [registration] };
  }
}

@Module({})
class PostTypeRegistrationModule {}
