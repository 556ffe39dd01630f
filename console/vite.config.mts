import { fileURLToPath } from 'node:url';
import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vite';

// The console is served by the service at /console (and /account); `npm run build:console` writes it to console/dist
// (not under dist/, which `nest build` empties).
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  plugins: [vue()],
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    // One small app: no inline scripts or styles anywhere, so the page runs under a strict CSP.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    // Build timings are noise in `npm run build` output.
    rolldownOptions: { checks: { pluginTimings: false } },
  },
  server: {
    // `npx vite console` during development: the API and the built pages come from the service.
    proxy: { '^/(cities|club|users|maps|moderation|evidence|console-session|console/config.json)': 'http://127.0.0.1:3000' },
  },
});
