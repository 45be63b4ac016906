import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The API lives on the same origin in production; in development, proxy it to a local `gatehouse serve`.
const api = process.env.GATEHOUSE_URL ?? 'http://127.0.0.1:7300';

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 400 },
  server: { proxy: { '/v1': { target: api, changeOrigin: false } } },
});
