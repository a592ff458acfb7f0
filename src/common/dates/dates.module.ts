import { Global, Module } from '@nestjs/common';
import { Clock } from './clock';
import { SiteTime } from './site-time';

/** The time source and site-zone helpers, available everywhere. */
@Global()
@Module({ providers: [Clock, SiteTime], exports: [Clock, SiteTime] })
export class DatesModule {}
