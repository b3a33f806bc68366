// Progressive enhancement of the lookup page: without this script the
// form is an ordinary GET and the server renders the whole page. With
// it, a lookup fetches only the result fragment (/?urn=...&part=result)
// and swaps it in, keeping the address bar and history in step.
"use strict";
(function () {
  var form = document.getElementById("lookup");
  var result = document.getElementById("result");
  if (!form || !result || !window.fetch || !window.history) {
    return;
  }
  function show(urn, push) {
    var q = "?urn=" + encodeURIComponent(urn);
    document.body.classList.add("busy");
    return fetch("/" + q + "&part=result", { headers: { "Accept": "text/html" } })
      .then(function (resp) { return resp.text(); })
      .then(function (html) {
        result.innerHTML = html;
        document.title = (urn ? urn + " · " : "") + "URN resolver";
        if (push) {
          history.pushState({ urn: urn }, "", "/" + q);
        }
      })
      .catch(function () { form.submit(); })
      .finally(function () { document.body.classList.remove("busy"); });
  }
  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    show(form.elements.urn.value, true);
  });
  window.addEventListener("popstate", function (ev) {
    var urn = ev.state && ev.state.urn !== undefined ? ev.state.urn : "";
    form.elements.urn.value = urn;
    show(urn, false);
  });
  document.documentElement.classList.add("enhanced");
})();
