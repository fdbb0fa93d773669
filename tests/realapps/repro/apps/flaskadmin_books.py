"""A small Flask-Admin app: 120 books, an Author relation, select/date/checkbox/textarea fields, modals."""

import datetime
import enum
import os
import random
import sys
from pathlib import Path
from typing import ClassVar

from flask import Flask, redirect
from flask_admin import Admin
from flask_admin.contrib.sqla import ModelView
from flask_sqlalchemy import SQLAlchemy

app = Flask(__name__)
app.config["SQLALCHEMY_DATABASE_URI"] = f"sqlite:///{Path(os.environ.get('BOOKS_DB', 'books.sqlite')).resolve()}"
app.config["SECRET_KEY"] = "loopback-only"
db = SQLAlchemy(app)


class Genre(enum.Enum):
    novel = "novel"
    poetry = "poetry"
    history = "history"
    science = "science"


class Author(db.Model):
    id = db.Column(db.Integer, primary_key=True)
    name = db.Column(db.String(80), nullable=False)

    def __str__(self):
        return self.name


class Book(db.Model):
    id = db.Column(db.Integer, primary_key=True)
    title = db.Column(db.String(120), nullable=False)
    genre = db.Column(db.Enum(Genre), nullable=False, default=Genre.novel)
    published = db.Column(db.Date)
    in_stock = db.Column(db.Boolean, default=True)
    notes = db.Column(db.Text)
    author_id = db.Column(db.Integer, db.ForeignKey("author.id"))
    author = db.relationship(Author)


class BookView(ModelView):
    column_searchable_list: ClassVar[list[str]] = ["title"]
    column_filters: ClassVar[list[str]] = ["genre", "in_stock", "published"]
    can_view_details = True
    details_modal = True
    edit_modal = False
    page_size = 20


admin = Admin(app, name="Bookshop")
admin.add_view(BookView(Book, db.session))
admin.add_view(ModelView(Author, db.session))


@app.route("/")
def index():
    return redirect("/admin/book/")


with app.app_context():
    db.drop_all()
    db.create_all()
    random.seed(3)
    authors = [Author(name=n) for n in ("Ada Lovelace", "Jorge Borges", "Ursula Le Guin", "Italo Calvino")]
    db.session.add_all(authors)
    for i in range(1, 121):
        db.session.add(
            Book(
                title=f"Book {i:03d}",
                genre=random.choice(list(Genre)),
                published=datetime.date(1950 + i % 70, i % 12 + 1, i % 28 + 1),
                in_stock=i % 3 != 0,
                notes=f"notes {i}",
                author=random.choice(authors),
            )
        )
    db.session.commit()

if __name__ == "__main__":
    app.run(host="127.0.0.1", port=int(sys.argv[1]) if len(sys.argv) > 1 else 8741)
