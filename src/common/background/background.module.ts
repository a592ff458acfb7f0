import { Global, Module } from '@nestjs/common';
import { BackgroundTasks } from './background-tasks';

/**
 * The record of background rounds, shared by the modules that run them and the metrics. Global: the rounds
 * run in core (publisher, change-log janitor), in modules (webhooks) and are read by operations.
 */
@Global()
@Module({ providers: [BackgroundTasks], exports: [BackgroundTasks] })
export class BackgroundModule {}
