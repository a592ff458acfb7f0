// Creates or drops a throw-away database on the server MYSQL_SERVER_URL points at: node mysql-admin.cjs
// create|drop NAME; `drop-prefix PREFIX` drops every database whose name starts with PREFIX_ (what a run's e2e
// suite made, E2E_DATABASE_PREFIX, when the run was stopped before the suite could drop them).
const { createConnection } = require('mysql2/promise');

async function main() {
  const [action, name] = process.argv.slice(2);
  if (!['create', 'drop', 'drop-prefix'].includes(action) || !/^[A-Za-z0-9_]+$/.test(name ?? '')) {
    throw new Error('usage: mysql-admin.cjs create|drop NAME, or drop-prefix PREFIX');
  }
  const url = new URL(process.env.MYSQL_SERVER_URL ?? 'mysql://root@127.0.0.1:3306');
  const conn = await createConnection({
    host: url.hostname,
    port: Number(url.port || 3306),
    user: decodeURIComponent(url.username || 'root'),
    password: decodeURIComponent(url.password),
  });
  if (action === 'drop-prefix') {
    const [rows] = await conn.query('SHOW DATABASES');
    for (const { Database: database } of rows) {
      if (database.startsWith(`${name}_`)) await conn.query(`DROP DATABASE IF EXISTS \`${database}\``);
    }
    await conn.end();
    return;
  }
  await conn.query(
    action === 'create'
      ? `CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`
      : `DROP DATABASE IF EXISTS \`${name}\``,
  );
  await conn.end();
}

main().catch((err) => {
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
});
