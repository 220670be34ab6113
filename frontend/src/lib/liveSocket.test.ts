import { describe, expect, it } from "vitest";
import { socketUrls } from "./liveSocket";

describe("socketUrls", () => {
  const page = { protocol: "https:", hostname: "erp.example.com", origin: "https://erp.example.com" };
  it("tries the page's origin (nginx serves /socket.io) before the server's own port", () => {
    expect(socketUrls(page, "erp.example.com", 9000)).toEqual(["https://erp.example.com/erp.example.com", "https://erp.example.com:9000/erp.example.com"]);
  });
  it("tries only the origin when the site names no port", () => {
    expect(socketUrls(page, "site1", null)).toEqual(["https://erp.example.com/site1"]);
  });
});
