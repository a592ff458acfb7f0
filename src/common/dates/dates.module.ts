import { Global, Module } from '@nestjs/common';
import { Clock } from './clock';
import { SiteTime } from './site-time';

/** The time source and site-zone helpers. Global: every layer asks what time it is, and in which zone. */
@Global()
@Module({ providers: [Clock, SiteTime], exports: [Clock, SiteTime] })
export class DatesModule {}
