import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { HealthController } from './health.controller';
import { MetricsService } from './metrics.service';
import { LOADED_EXTENSIONS, StartupSummary } from './startup-summary';

/** What operators read: liveness and readiness, Prometheus metrics, the start-up summary lines. */
@Module({})
export class OperationsModule {
  /** @param extensions the resource modules this process runs beyond the calendar's: the summary names them. */
  static forRoot(extensions: readonly Type[]): DynamicModule {
    return {
      module: OperationsModule,
      controllers: [HealthController],
      providers: [MetricsService, StartupSummary, { provide: LOADED_EXTENSIONS, useValue: extensions }],
      exports: [MetricsService, StartupSummary],
    };
  }
}
