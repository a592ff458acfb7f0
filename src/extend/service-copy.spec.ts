import { describe, expect, it } from '@jest/globals';
import { claimServiceCopy } from './service-copy';

describe('claimServiceCopy', () => {
  it('lets the same file claim again and refuses a second copy, naming both', () => {
    claimServiceCopy('/srv/cal/dist/src/extend/index.js');
    claimServiceCopy('/srv/cal/dist/src/extend/index.js');
    claimServiceCopy(undefined);
    expect(() => claimServiceCopy('/team/node_modules/cal-events-service/dist/src/extend/index.js')).toThrow(
      /second copy of the calendar service \(\/team\/node_modules\/cal-events-service\/dist\/src\/extend\/index\.js; the running one is \/srv\/cal\/dist\/src\/extend\/index\.js\)/,
    );
  });
});
