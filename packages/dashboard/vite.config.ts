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
      // react-router marks its modules "use client" for server components; a browser bundle ignores it.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
});
