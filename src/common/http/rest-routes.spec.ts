import { describe, expect, it } from '@jest/globals';
import { Controller, Get, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { PathId } from './rest-routes';

@Controller('things')
class TwoIdsController {
  @Get(':id/parts/:part')
  get(@PathId({ en: 'Thing', de: 'Ding' }) id: number, @PathId({ en: 'Part', de: 'Teil' }, 'part') part: number) {
    return { id, part };
  }
}

describe('PathId', () => {
  it('reads every path id of a route that has no other parameter', async () => {
    const module = await Test.createTestingModule({ controllers: [TwoIdsController] }).compile();
    const app: INestApplication = module.createNestApplication();
    await app.init();
    try {
      const res = await request(app.getHttpServer()).get('/things/12/parts/34');
      expect([res.status, res.body]).toEqual([200, { id: 12, part: 34 }]);
    } finally {
      await app.close();
    }
  });
});
