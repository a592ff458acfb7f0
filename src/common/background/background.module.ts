import { Global, Module } from '@nestjs/common';
import { BackgroundTasks } from './background-tasks';

/** The record of background rounds, shared by the modules that run them and the metrics. */
@Global()
@Module({ providers: [BackgroundTasks], exports: [BackgroundTasks] })
export class BackgroundModule {}
