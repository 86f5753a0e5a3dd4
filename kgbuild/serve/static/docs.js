// The OpenAPI document of this server, rendered by the vendored Swagger UI (no CDN).
"use strict";
window.addEventListener("DOMContentLoaded", function () {
  window.SwaggerUIBundle({ url: "/openapi.json", dom_id: "#swagger-ui", deepLinking: true });
});
