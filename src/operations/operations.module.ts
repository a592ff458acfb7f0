import { Module } from '@nestjs/common';
import { HealthController } from './health.controller';
import { MetricsService } from './metrics.service';
import { StartupSummary } from './startup-summary';

/** What operators read: liveness and readiness, Prometheus metrics, the start-up summary line. */
@Module({
  controllers: [HealthController],
  providers: [MetricsService, StartupSummary],
  exports: [MetricsService, StartupSummary],
})
export class OperationsModule {}
