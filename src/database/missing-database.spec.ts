import { missingDatabaseMessage } from './missing-database';

describe(missingDatabaseMessage.name, () => {
  const unknown = Object.assign(new Error("Unknown database 'community_x'"), { code: 'ER_BAD_DB_ERROR', errno: 1049 });

  it('names the database and its server from DATABASE_URL, never the user or password', () => {
    const message = missingDatabaseMessage(unknown, 'mysql://ops:hunter2@db.example:3307/community_x');
    expect(message).toBe('The database community_x does not exist on db.example:3307 (DATABASE_URL): create it (CREATE DATABASE `community_x` CHARACTER SET utf8mb4) or correct the name');
    expect(message).not.toMatch(/ops|hunter2/);
  });

  it('finds the driver error behind TypeORM or a cause, and defaults the port', () => {
    const wrapped = Object.assign(new Error('Unknown database ?'), { driverError: unknown });
    expect(missingDatabaseMessage(new Error('start', { cause: wrapped }), 'mariadb://root@localhost/c%C3%A9')).toMatch(/^The database cé does not exist on localhost:3306/);
  });

  it('says nothing of other errors or of SQLite', () => {
    expect(missingDatabaseMessage(new Error('connect ECONNREFUSED'), 'mysql://root@h/x')).toBeUndefined();
    expect(missingDatabaseMessage(unknown, 'sqlite:./data/x.sqlite')).toBeUndefined();
  });
});
