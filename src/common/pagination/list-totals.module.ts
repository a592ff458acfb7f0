import { Global, Module } from '@nestjs/common';
import { ListTotalsCache } from './list-totals.cache';

@Global()
@Module({ providers: [ListTotalsCache], exports: [ListTotalsCache] })
export class ListTotalsModule {}
