import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../../auth/auth.module';
import { EventsModule } from '../events';
import { CsvImports } from './csv-imports.service';
import { IcalImports } from './ical-imports.service';
import { ImportLedger } from './import-ledger';
import { ImportSources } from './import-sources.service';
import { ImportedRecordEntity } from './imported-record.entity';
import { ImportedTermEntity } from './imported-term.entity';
import { ImportRunEntity } from './subscriptions/import-run.entity';
import { ImportScheduler } from './subscriptions/import-scheduler';
import { ImportSubscriptionEntity } from './subscriptions/import-subscription.entity';
import { ImportSubscriptions } from './subscriptions/import-subscriptions.service';
import { ImportsController } from './subscriptions/imports.controller';
import { TecImports } from './tec-imports.service';
import { ImportIgnoredEntity } from './options/import-ignored.entity';
import { IgnoredRecords } from './options/ignored-records';
import { CredentialSeal } from './subscriptions/credential-seal';
import { ImportQueue } from './subscriptions/import-queue';
import { ImportRunner } from './subscriptions/import-runner.service';

/**
 * Imports into the calendar (issue 37): iCalendar feeds and TEC sites, by the CLI (`import:ical`,
 * `import:tec`) and by subscriptions at `/cal/events/v1/imports`, all through `ImportSources`.
 */
@Module({
  imports: [
    EventsModule,
    AuthModule,
    TypeOrmModule.forFeature([
      ImportedRecordEntity,
      ImportedTermEntity,
      ImportSubscriptionEntity,
      ImportRunEntity,
      ImportIgnoredEntity,
    ]),
  ],
  controllers: [ImportsController],
  providers: [
    ImportLedger,
    IcalImports,
    TecImports,
    ImportSources,
    ImportSubscriptions,
    ImportScheduler,
    IgnoredRecords,
    CredentialSeal,
    CsvImports,
    ImportQueue,
    ImportRunner,
  ],
  exports: [IcalImports, CsvImports, ImportSources, ImportSubscriptions, ImportScheduler, IgnoredRecords],
})
export class ImportsModule {}
