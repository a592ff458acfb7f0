import { Controller, Get, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { DataSource } from 'typeorm';
import { UsersService } from '../auth/users.service';
import { Clock } from '../common/dates/clock';
import { Ctx, type RequestContext } from '../common/http/request-context';
import { serviceVersion } from '../operations/version';
import { DOC_FILES, firstRunHtml, tryCommands, type FirstRunPage } from './first-run';

/**
 * `GET /` (below `API_PREFIX` when one is set): what a new team sees first. HTML when a browser asks for
 * it, JSON otherwise: the version, the database, whether an administrator exists, where the route index,
 * the API UI, the feeds and the docs are, and two commands that create an event and list it here.
 */
@ApiExcludeController()
@Controller()
export class FirstRunController {
  constructor(
    private readonly users: UsersService,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  @Get()
  async page(@Ctx() ctx: RequestContext, @Req() req: Request): Promise<FirstRunPage | string> {
    const administrator = await this.users.hasAdministrator();
    const ns = ctx.namespaceUrl;
    const page: FirstRunPage = {
      name: 'Events Calendar REST service',
      version: serviceVersion(),
      database: { type: this.dataSource.options.type === 'mysql' ? 'mysql' : 'sqlite' },
      administrator,
      links: {
        routes: ns,
        openapi: `${ns}/doc`,
        api_ui: `${ns}/doc/ui/`,
        events: `${ns}/events`,
        feed: `${ns}/events.ics`,
        health: `${ctx.siteUrl}/health/ready`,
      },
      docs: DOC_FILES,
      // Tomorrow: inside the list's default window (from yesterday on) whatever the hour and zone.
      try: tryCommands(ns, new Date(this.clock.now().getTime() + 86_400_000).toISOString()),
      next: administrator
        ? 'Send writes as HTTP Basic with a login and one of its application passwords (npm run cli -- password:issue LOGIN).'
        : 'No administrator yet: start with CAL_ADMIN_LOGIN and CAL_ADMIN_PASSWORD set, or run npm run cli -- user:create LOGIN --role administrator.',
    };
    req.res?.vary('Accept');
    if (req.accepts(['application/json', 'text/html']) !== 'text/html') return page;
    req.res?.type('html');
    return firstRunHtml(page);
  }
}
