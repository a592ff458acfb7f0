// Creates or drops a throw-away database on the server DATABASE_URL points at: node mysql-admin.cjs create|drop NAME
const { createConnection } = require('mysql2/promise');

async function main() {
  const [action, name] = process.argv.slice(2);
  if (!['create', 'drop'].includes(action) || !/^[A-Za-z0-9_]+$/.test(name ?? '')) {
    throw new Error('usage: mysql-admin.cjs create|drop NAME');
  }
  const url = new URL(process.env.MYSQL_SERVER_URL ?? 'mysql://root@127.0.0.1:3306');
  const conn = await createConnection({
    host: url.hostname,
    port: Number(url.port || 3306),
    user: decodeURIComponent(url.username || 'root'),
    password: decodeURIComponent(url.password),
  });
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
