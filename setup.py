"""The wheel's build step compiles the translation catalogs (the .mo files are not committed).

Everything else about the package is in pyproject.toml. companion/i18n/catalogs.py needs only Babel
(a build requirement), so it is loaded from its file without importing the Flask app.
"""

import importlib.util
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithCatalogs(build_py):
    """build_py, then each messages.po compiled beside its copy in the build."""

    def run(self):
        super().run()
        spec = importlib.util.spec_from_file_location("catalogs", Path(__file__).parent / "companion" / "i18n" / "catalogs.py")
        catalogs = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(catalogs)
        for po in Path("companion/i18n/translations").glob("*/LC_MESSAGES/*.po"):
            catalogs.compile_catalog(po, Path(self.build_lib) / po.with_suffix(".mo"))


setup(cmdclass={"build_py": BuildWithCatalogs})
