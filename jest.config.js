// One config, two projects: unit specs beside the code, e2e specs in test/ (real HTTP, real database).
const common = {
  // content-disposition (under @fastify/static) ships ES modules only; Node loads it natively, Jest needs it compiled.
  transform: { '^.+\\.(t|j)s$': ['@swc/jest'] },
  transformIgnorePatterns: ['/node_modules/(?!.*content-disposition/)'],
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
};

module.exports = {
  testTimeout: 60000,
  projects: [
    { ...common, displayName: 'unit', rootDir: 'src', testRegex: '.*\\.spec\\.ts$' },
    { ...common, displayName: 'e2e', rootDir: '.', testRegex: 'test/.*\\.e2e-spec\\.ts$', slowTestThreshold: 30 },
  ],
};
