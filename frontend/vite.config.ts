import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";

const outDir = fileURLToPath(new URL("../huf/public/frontend", import.meta.url));

// Served by Frappe at /assets/huf/frontend/; /huf (huf/www/huf.py) reads the built index.html.
export default defineConfig({
  plugins: [react()],
  base: "/assets/huf/frontend/",
  build: {
    outDir,
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 400,
  },
  server: {
    proxy: {
      "^/(api|assets|files|login|huf/stream)": { target: "http://127.0.0.1:8000", changeOrigin: false },
    },
  },
  test: {
    environment: "node",
    include: ["src/**/*.test.ts"],
  },
});
