import { Module } from '@nestjs/common';
import { ListTotalsCache } from './list-totals.cache';

/** Reused list totals (docs/performance.md); imported by the modules whose lists use them. */
@Module({ providers: [ListTotalsCache], exports: [ListTotalsCache] })
export class ListTotalsModule {}
