import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../../auth/auth.module';
import { EventsModule } from '../events/events.module';
import { IcalImports } from './ical-imports.service';
import { ImportedRecordEntity } from './imported-record.entity';

/** Imports into the calendar (issue 37): iCalendar feeds so far, by the CLI's `import:ical`. */
@Module({
  imports: [EventsModule, AuthModule, TypeOrmModule.forFeature([ImportedRecordEntity])],
  providers: [IcalImports],
  exports: [IcalImports],
})
export class ImportsModule {}
