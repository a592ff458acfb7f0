'use strict';
const { TEMPLATE_DATABASE_VARIABLE, dropTemplate } = require('./template-database.cjs');

module.exports = async function globalTeardown() {
  const url = process.env[TEMPLATE_DATABASE_VARIABLE];
  if (url) await dropTemplate(url);
};
