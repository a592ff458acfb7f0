'use strict';
const { TEMPLATE_DATABASE_VARIABLE, dropTemplate } = require('./template-database.cjs');

module.exports = function globalTeardown() {
  const url = process.env[TEMPLATE_DATABASE_VARIABLE];
  if (url) dropTemplate(url);
};
