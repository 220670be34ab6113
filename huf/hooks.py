app_name = "huf"
app_title = "Huf"
app_publisher = "Huf"
app_description = "Build and run AI agents on Frappe"
app_email = "hello@huf.ai"
app_license = "MIT"
required_apps = []

after_install = "huf.install.after_install"
after_migrate = "huf.install.after_migrate"
