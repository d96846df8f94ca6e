// A JupyterLab federated extension that exposes no plugin; it only fills a gap in a shared scope.
//
// jupyterlab-rise's slideshow page (/rise/<path>) is an application of its own whose shared
// scope has no @jupyterlab/console. The ipywidgets 8 widget manager
// (@jupyter-widgets/jupyterlab-manager) imports that package for one thing, the IConsoleTracker
// token of an optional dependency, and without it the manager fails to load, so widgets on a
// slide show their text or HTML form (jupyterlab-contrib/rise#119). When this container is
// initialised with a scope lacking @jupyterlab/console, it provides a module holding only that
// token. No plugin provides the token on that page, so the manager gets null for it and runs
// with notebooks only. JupyterLab itself shares the real package before any extension is
// initialised, so there this does nothing.
(function () {
  "use strict";
  var NAME = "autograd-lab-rise-widgets";
  var KEY = "@jupyterlab/console";
  var consoleModule = {
    IConsoleTracker: {
      name: "@jupyterlab/console:IConsoleTracker",
      description: "A widget tracker for code consoles (none on this page)."
    }
  };
  var registry = (window._JUPYTERLAB = window._JUPYTERLAB || {});
  registry[NAME] = {
    get: function (module) {
      return Promise.reject(new Error(NAME + " exposes no module " + module));
    },
    init: function (shareScope) {
      if (!shareScope || shareScope[KEY]) {
        return;
      }
      shareScope[KEY] = {
        "4.0.0": {
          get: function () {
            return Promise.resolve(function () { return consoleModule; });
          },
          from: NAME,
          eager: false
        }
      };
    }
  };
})();
