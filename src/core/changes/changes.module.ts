import { Global, Module } from '@nestjs/common';
import { ChangeLogJanitor } from './change-log.janitor';
import { ChangeSourceRegistry } from './change-source.registry';
import { ChangeHeads } from './change-heads';
import { ChangesController } from './changes.controller';
import { ChangesService } from './changes.service';
import { ConditionalWrites } from './conditional-writes';
import { LastModifiedInterceptor } from './last-modified.interceptor';

/**
 * The change log's readers: `GET /changes` (incremental sync), `Last-Modified`/`modified_after` from
 * `change_heads`, and the retention janitor. Writes record changes through `DatabaseContext`; resource
 * modules register a {@link ChangeSourceRegistry} entry so their records appear in the feed. Global: every
 * resource module registers its change source and its conditional writes here.
 */
@Global()
@Module({
  controllers: [ChangesController],
  providers: [
    ChangeSourceRegistry,
    ChangesService,
    ChangeLogJanitor,
    ChangeHeads,
    LastModifiedInterceptor,
    ConditionalWrites,
  ],
  exports: [ChangeSourceRegistry, ChangeHeads, ChangeLogJanitor, LastModifiedInterceptor, ConditionalWrites],
})
export class ChangesModule {}
