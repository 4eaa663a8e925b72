import { defineConfig } from 'vite';

// Plain Vite: esbuild compiles the TSX (no Babel plugin, no dev-only refresh runtime in the build).
// The output has no inline script or style, so the server's policy allows none (decision 0081).
export default defineConfig({
  base: '/dashboard/',
  esbuild: { jsx: 'automatic' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Vite's module-preload polyfill is a script of its own; every browser the dashboard supports has modulepreload.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
    target: 'es2022',
    rollupOptions: {
      // The five catalogues (decision 0108) load beside the application, as a file of their own.
      output: {
        manualChunks(id) {
          return /\/src\/i18n\/(en|de|fr|es|ja)\.ts$/.test(id) ? 'messages' : undefined;
        },
      },
      // react-router marks its modules "use client" for server components; a browser bundle ignores it.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
});
