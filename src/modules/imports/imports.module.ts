import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../../auth/auth.module';
import { EventsModule } from '../events/events.module';
import { IcalImports } from './ical-imports.service';
import { ImportLedger } from './import-ledger';
import { ImportedRecordEntity } from './imported-record.entity';
import { ImportedTermEntity } from './imported-term.entity';
import { TecImports } from './tec-imports.service';

/** Imports into the calendar (issue 37): iCalendar feeds and TEC sites, by the CLI's `import:ical` and `import:tec`. */
@Module({
  imports: [EventsModule, AuthModule, TypeOrmModule.forFeature([ImportedRecordEntity, ImportedTermEntity])],
  providers: [ImportLedger, IcalImports, TecImports],
  exports: [IcalImports, TecImports],
})
export class ImportsModule {}
