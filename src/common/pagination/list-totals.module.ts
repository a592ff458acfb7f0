import { Global, Module } from '@nestjs/common';
import { ClearListTotalsInterceptor } from './clear-list-totals.interceptor';
import { ListTotalsCache } from './list-totals.cache';

@Global()
@Module({
  providers: [ListTotalsCache, ClearListTotalsInterceptor],
  exports: [ListTotalsCache, ClearListTotalsInterceptor],
})
export class ListTotalsModule {}
