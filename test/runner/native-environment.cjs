'use strict';
// The e2e specs' environment: Jest's node environment, plus the worker process's own `require`, through which
// the compiled service (dist/) is loaded once per worker and shared by every spec file that worker runs
// (see native-transform.cjs for why).
const { TestEnvironment } = require('jest-environment-node');

class CompiledServiceEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.global.__calRequireNative = require;
    // The service's decorators record their metadata through reflect-metadata, which patches the Reflect of
    // the realm that loads it (the worker's). A spec's own decorated classes (a test controller, a DTO) must
    // record theirs in the same place, so Nest reads both.
    require('reflect-metadata');
    this.global.Reflect = Reflect;
    // A Date a spec makes is handed to packages that test `instanceof Date` against the worker's Date.
    this.global.Date = Date;
  }
}

module.exports = CompiledServiceEnvironment;
