import type { MigrationInterface } from 'typeorm';
import { CreatePostsAndTerms1763600000000 } from './1763600000000-create-posts-and-terms';
import { CreateUsers1763700000000 } from './1763700000000-create-users';
import { CreateCalendarTables1763800000000 } from './1763800000000-create-calendar-tables';
import { AddWriteLocksAndTrashOrigin1764000000000 } from './1764000000000-add-write-locks-and-trash-origin';
import { AddWriteSequence1764100000000 } from './1764100000000-add-write-sequence';
import { AddEventListingDays1764200000000 } from './1764200000000-add-event-listing-days';
import { AddEventTermListingDays1764300000000 } from './1764300000000-add-event-term-listing-days';
import { AddEventSearchWords1764400000000 } from './1764400000000-add-event-search-words';
import { AddWriteSequenceTime1764500000000 } from './1764500000000-add-write-sequence-time';
import { AddChangeLog1764600000000 } from './1764600000000-add-change-log';
import { AddWebhooks1764700000000 } from './1764700000000-add-webhooks';
import { AddLeases1764800000000 } from './1764800000000-add-leases';
import { AddEventSearchWordDays1764900000000 } from './1764900000000-add-event-search-word-days';
import { AddEventDocuments1765000000000 } from './1765000000000-add-event-documents';
import { AddReplicaHeartbeat1765100000000 } from './1765100000000-add-replica-heartbeat';
import { AddSiteIdentity1765200000000 } from './1765200000000-add-site-identity';
import { AddChangeHeadSeq1765300000000 } from './1765300000000-add-change-head-seq';
import { AddDocumentValidUntil1765400000000 } from './1765400000000-add-document-valid-until';
import { AddDerivedStores1765500000000 } from './1765500000000-add-derived-stores';
import { AddEventSeries1765600000000 } from './1765600000000-add-event-series';
import { AddImportedRecords1765700000000 } from './1765700000000-add-imported-records';
import { AddImportedTerms1765800000000 } from './1765800000000-add-imported-terms';
import { AddImportSubscriptions1765900000000 } from './1765900000000-add-import-subscriptions';
import { AddImportSuspension1766000000000 } from './1766000000000-add-import-suspension';
import { AddDocumentBodiesPerBuild1766100000000 } from './1766100000000-add-document-bodies-per-build';
import { AddEventFieldValues1766200000000 } from './1766200000000-add-event-field-values';
import { AddImportOptions1766300000000 } from './1766300000000-add-import-options';

/**
 * Every migration, oldest first. Listed explicitly (not globbed) so the compiled app, ts-node and the
 * test runner load exactly the same classes. A new migration is appended here; landed ones never change
 * what they make (their steps may only learn to skip what is already there, `schema-steps.ts`).
 */
export const MIGRATIONS: (new () => MigrationInterface)[] = [
  CreatePostsAndTerms1763600000000,
  CreateUsers1763700000000,
  CreateCalendarTables1763800000000,
  AddWriteLocksAndTrashOrigin1764000000000,
  AddWriteSequence1764100000000,
  AddEventListingDays1764200000000,
  AddEventTermListingDays1764300000000,
  AddEventSearchWords1764400000000,
  AddWriteSequenceTime1764500000000,
  AddChangeLog1764600000000,
  AddWebhooks1764700000000,
  AddLeases1764800000000,
  AddEventSearchWordDays1764900000000,
  AddEventDocuments1765000000000,
  AddReplicaHeartbeat1765100000000,
  AddSiteIdentity1765200000000,
  AddChangeHeadSeq1765300000000,
  AddDocumentValidUntil1765400000000,
  AddDerivedStores1765500000000,
  AddEventSeries1765600000000,
  AddImportedRecords1765700000000,
  AddImportedTerms1765800000000,
  AddImportSubscriptions1765900000000,
  AddImportSuspension1766000000000,
  AddDocumentBodiesPerBuild1766100000000,
  AddEventFieldValues1766200000000,
  AddImportOptions1766300000000,
];
